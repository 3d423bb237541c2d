// A check step the e2e test controls: when <dir>/block exists it writes its pid to <dir>/started and waits until
// <dir>/release exists (the test never creates it: it stops the session instead); otherwise it passes at once.
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
if (!dir || !fs.existsSync(path.join(dir, 'block'))) process.exit(0);
fs.writeFileSync(path.join(dir, 'started'), String(process.pid));
console.log('gate: waiting for the test');
setInterval(() => {
  if (fs.existsSync(path.join(dir, 'release'))) process.exit(0);
}, 50);
