// src/core/checks/checkEnv.ts: a check runs without the Anthropic credentials, with the rest of the developer's
// environment, and the values of secret-looking variables never reach its kept output.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCheck } from '../../src/core';
import { checkEnv, hideSecrets, secretValues, SECRET_VARIABLE_NAME } from '../../src/core/checks/checkEnv';

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
    assert.deepStrictEqual(secrets.map((s) => s.name), ['LONG_SECRET', 'GITHUB_TOKEN']);
    assert.strictEqual(
      hideSecrets('a ghp_abcdefgh-and-more b ghp_abcdefgh c true /home/someone-long', secrets),
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
