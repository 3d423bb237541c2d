// src/core/checks/checkEnv.ts: a check runs without the Anthropic credentials, with the rest of the developer's
// environment, and the values of secret-looking variables never reach its kept output.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheck } from '../../src/core';
import { checkEnv, encodedForms, secretHider, secretValues } from '../../src/core/checks/checkEnv';
import { SECRET_VARIABLE_NAME } from '../../src/core/workspace/secretNames';
import { needleReplacer } from '../../src/core/text/needles';

describe('checks: the environment a check runs with', () => {
  it('drops the Anthropic credentials and ELECTRON_RUN_AS_NODE, keeps the rest, sets CI', () => {
    const env = checkEnv({ PATH: '/bin', HOME: '/h', DATABASE_URL: 'postgres://localhost/test', ANTHROPIC_API_KEY: 'sk-ant-x', ANTHROPIC_AUTH_TOKEN: 'tok', ELECTRON_RUN_AS_NODE: '1', GITHUB_TOKEN: 'ghp_x' });
    assert.deepStrictEqual(env, { PATH: '/bin', HOME: '/h', DATABASE_URL: 'postgres://localhost/test', GITHUB_TOKEN: 'ghp_x', CI: '1' });
  });

  it('tells secret-looking names from the others', () => {
    for (const n of ['GITHUB_TOKEN', 'NODE_AUTH_TOKEN', 'npm_config_//registry.npmjs.org/:_authToken', 'AWS_SECRET_ACCESS_KEY', 'ANTHROPIC_API_KEY', 'PGPASSWORD', 'DB_PASSWORD_FILE', 'STRIPE_KEY_LIVE', 'npm_config__auth', 'CLIENT_SECRET', 'GPG_PASSPHRASE']) {
      assert.ok(SECRET_VARIABLE_NAME.test(n), n);
    }
    for (const n of ['PATH', 'HOME', 'DATABASE_URL', 'SSH_AUTH_SOCK', 'TOKENIZERS_PARALLELISM', 'KEYBOARD_LAYOUT', 'PWD', 'CI', 'NODE_ENV']) assert.ok(!SECRET_VARIABLE_NAME.test(n), n);
  });

  it('hides values of secret-looking variables of at least 8 characters, the longest first', () => {
    const secrets = secretValues({ GITHUB_TOKEN: 'ghp_abcdefgh', LONG_SECRET: 'ghp_abcdefgh-and-more', FEATURE_KEY: 'true', HOME: '/home/someone-long' });
    assert.deepStrictEqual(secrets.map((s) => s.what), ['the value of LONG_SECRET', 'the value of GITHUB_TOKEN']);
    assert.strictEqual(
      secretHider(secrets)('a ghp_abcdefgh-and-more b ghp_abcdefgh c true /home/someone-long'),
      'a [hidden: the value of LONG_SECRET] b [hidden: the value of GITHUB_TOKEN] c true /home/someone-long',
    );
  });

  it("a check that prints its environment: no credential in it, no secret's value in its output, the rest as it was", async function () {
    if (process.platform === 'win32') this.skip();
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-env-'));
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-api03-UNIT-KEY', GITHUB_TOKEN: 'ghp_UNITTOKEN123', DATABASE_URL: 'postgres://localhost/unit', FLAG_KEY: 'on' };
    const command = `node -e "console.log(JSON.stringify(process.env)); process.exit(1)"`;
    const run = await runCheck({ command, cwd, round: 0, env });
    assert.strictEqual(run.status, 'failed');
    assert.ok(!run.output.includes('sk-ant-api03-UNIT-KEY') && !run.output.includes('ANTHROPIC_API_KEY'), 'the key is not in the environment at all');
    assert.ok(!run.output.includes('ghp_UNITTOKEN123'), run.output);
    assert.match(run.output, /"GITHUB_TOKEN":"\[hidden: the value of GITHUB_TOKEN\]"/, 'the variable reaches the check; its value is hidden');
    assert.match(run.output, /"DATABASE_URL":"postgres:\/\/localhost\/unit"/);
    assert.match(run.output, /"FLAG_KEY":"on"/, 'a short value is left');
  });
});

describe('checks: a secret printed encoded is hidden too', () => {
  // a password with characters each encoding changes: `?>?` (base64's `/` and `+`: base64url's `_` and `-`), `@`, `/`
  // and blanks (percent-encoding), `"` and `\` (JSON)
  const PASSWORD = 'p@ss/w0rd?>?+ "q" \\end';
  const MARK = '[hidden: the value of DB_PASSWORD]';

  it("a check printing the value base64'd, base64url'd, percent-encoded, JSON-escaped and in a Basic auth header: none of them in its output", async function () {
    if (process.platform === 'win32') this.skip();
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-unit-enc-'));
    const script = [
      'const v = process.env.DB_PASSWORD;',
      "console.log('base64', Buffer.from(v).toString('base64'));",
      "console.log('base64url', Buffer.from(v).toString('base64url'));",
      "console.log('echo | base64', Buffer.from(v + '\\n').toString('base64'));",
      "console.log('url', 'postgres://app:' + encodeURIComponent(v) + '@db/x');",
      "console.log('json', JSON.stringify({ password: v }));",
      "console.log('basic', 'Authorization: Basic ' + Buffer.from('app:' + v).toString('base64'));",
      'process.exit(1);',
    ].join(' ');
    const run = await runCheck({ command: `node -e ${JSON.stringify(script)}`, cwd, round: 0, env: { ...process.env, DB_PASSWORD: PASSWORD } });
    assert.strictEqual(run.status, 'failed');
    assert.deepStrictEqual(run.output.split('\n'), [
      `base64 ${MARK}==`,
      `base64url ${MARK}`,
      `echo | base64 ${MARK}o=`,
      `url postgres://app:${MARK}@db/x`,
      `json {"password":"${MARK}"}`,
      // `app:` and the value's last two characters share their groups with each other: 1 to 3 characters at each end
      `basic Authorization: Basic YXBwOn${MARK}bmQ=`,
    ]);
  });

  it('the forms of a value: each encoding once, base64 wherever the value starts in a group', () => {
    assert.deepStrictEqual(encodedForms('ghp_TOKEN123'), ['ghp_TOKEN123', 'Z2hwX1RPS0VOMTIz', 'docF9UT0tFTjEy', 'naHBfVE9LRU4x'], 'a plain token: base64 alone differs, at its three places in a group');
    // whatever comes before and after it, its base64 holds one of them
    for (const before of ['', 'a', 'ab', 'abc', 'user:']) {
      for (const after of ['', '\n', 'xy', 'xyz']) {
        const encoded = Buffer.from(before + 'ghp_TOKEN123' + after).toString('base64');
        assert.ok(encodedForms('ghp_TOKEN123').some((f) => encoded.includes(f)), `${before}…${after}`);
      }
    }
    const forms = encodedForms('pa ss/wörd');
    for (const f of ['pa%20ss%2Fw%C3%B6rd', 'pa%20ss%2fw%c3%b6rd', 'pa+ss%2Fw%C3%B6rd', 'pa%20ss/w%C3%B6rd', 'pa ss/w\\u00f6rd']) assert.ok(forms.includes(f), f);
    assert.strictEqual(new Set(forms).size, forms.length);
  });

  it('hides every form of every value in one pass: the longest at a place, overlapping ones not twice', () => {
    const hide = secretHider([
      { value: 'abcdefgh-long', what: 'the value of A' },
      { value: 'abcdefgh', what: 'the value of B' },
    ]);
    assert.strictEqual(hide('x abcdefgh-long y abcdefgh z YWJjZGVmZ2g= w'), 'x [hidden: the value of A] y [hidden: the value of B] z [hidden: the value of B]= w');
    assert.strictEqual(hide('nothing here'), 'nothing here');
    const replace = needleReplacer(['he', 'she', 'hers', 'his', '']);
    assert.strictEqual(replace('ushers ahishe', (i) => `<${i}>`), 'u<1>rs a<3><0>', 'she, not he or hers inside it; his, then the he after it');
    assert.strictEqual(replace('hhhers', (i) => `<${i}>`), 'hh<2>');
    assert.strictEqual(needleReplacer([])('text', () => 'x'), 'text');
    assert.strictEqual(needleReplacer(['abc', 'abc'])('abc', (i) => `<${i}>`), '<0>', 'of two equal needles, the first');
  });
});
