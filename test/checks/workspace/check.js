// The calc workspace's check: every source file must be free of the BUG marker. Fails naming file and line.
const fs = require('fs');
const path = require('path');
let failed = 0;
for (const name of fs.readdirSync(path.join(__dirname, 'src')).sort()) {
  const lines = fs.readFileSync(path.join(__dirname, 'src', name), 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (line.includes('BUG')) {
      console.log(`src/${name}:${i + 1}: error: a BUG marker is left in the code`);
      failed++;
    }
  });
}
console.log(failed ? `${failed} problem(s)` : 'all sources clean');
process.exit(failed ? 1 : 0);
