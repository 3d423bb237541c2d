// Secret files by name (SECRET_NAME_PATTERNS, src/core/workspace/secretNames.ts) across everything that reads the
// workspace: the index, the tools read_file / search_files / list_files and DevA's <edit> blocks refuse Terraform
// state and variables, cloud service-account keys and tool credential files as they refuse `.env`, and a look-alike
// name (main.tf, src/tfstate.ts, service-account.ts) stays readable.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveEdits } from '../../src/core/edits/propose';
import { ToolRunner } from '../../src/core/tools/executor';
import { SECRET_NAME_PATTERNS, secretPattern } from '../../src/core/workspace/secretNames';
import { WorkspaceIndex } from '../../src/core/workspace/workspaceIndex';
import { repoRoot } from '../helpers/fixtures';

/** Secret files, each holding its own marker, which no answer may show. */
const SECRETS = [
  'terraform.tfstate',
  'infra/prod/terraform.tfstate.backup',
  'infra/prod/terraform.tfstate.1700000000.backup',
  'infra/prod/prod.tfvars',
  'infra/prod/secrets.auto.tfvars',
  'infra/prod/override.tfvars.json',
  '.terraformrc',
  'terraform.rc',
  'service-account.json',
  'deploy/service-account-key.json',
  'deploy/service_account.json',
  'functions/serviceAccountKey.json',
  'functions/my-app-firebase-adminsdk-ab12c-0123456789.json',
  'gcloud/application_default_credentials.json',
  'client_secret_1234.apps.googleusercontent.com.json',
  '.my.cnf',
  '.vault-token',
  '.dockercfg',
  '.s3cfg',
  // already on the list: kept so
  '.git-credentials',
  '.pgpass',
  'vault/team.kdbx',
  '.aws/credentials',
  '.env.example',
  // backups and variants of credential files, environment folders
  '.env~',
  '.env.bak',
  'config/.npmrc.bak',
  '.netrc~',
  '.yarnrc.yml',
  '.envs/.production/.django',
  // inside a folder of code named like a credentials file, a file still goes by its own name
  'src/credentials/credentials.json',
];

/** Names close to the secrets that are ordinary files. */
const READABLE = ['infra/prod/main.tf', 'infra/prod/variables.tf', 'src/tfstate.ts', 'src/service-account.ts', 'docs/service-accounts.md', 'infra/terraform.tfvars.example', 'src/environment.ts', 'docs/npmrc.md',
  // a folder named like a credentials file (an SDK's credential providers) is code
  'src/credentials/fromEnv.ts', 'lib/secrets.d/index.js'];

const marker = (i: number): string => `LEAKED${1000 + i}`;

function workspace(): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'cape-secret-names-'));
  [...SECRETS, ...READABLE].forEach((rel, i) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    const mark = i < SECRETS.length ? marker(i) : `readable${i}`;
    fs.writeFileSync(path.join(ws, rel), rel.endsWith('.json') ? `{ "private_key": "${mark}" }\n` : `token = "${mark}"\n`);
  });
  return ws;
}

describe('secret names: Terraform, cloud keys and credential files are never read', () => {
  let ws: string;
  before(() => (ws = workspace()));
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it('are on the list (by name, at any depth) and their look-alikes are not', () => {
    for (const rel of SECRETS) assert.ok(secretPattern(rel), rel);
    for (const rel of READABLE) assert.strictEqual(secretPattern(rel), null, rel);
  });

  it('the README names exactly the list', () => {
    const readme = fs.readFileSync(path.join(repoRoot(), 'README.md'), 'utf8');
    const at = readme.indexOf('Secret names (`SECRET_NAME_PATTERNS`');
    assert.ok(at > 0, 'the README documents the list');
    const paragraph = readme.slice(at, readme.indexOf('\n- **', at));
    const named = [...paragraph.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    const context = ['SECRET_NAME_PATTERNS', 'src/core/workspace/secretNames.ts', '.env.example'];
    assert.deepStrictEqual(named.filter((n) => !context.includes(n)).sort(), [...SECRET_NAME_PATTERNS].sort());
  });

  it('the index leaves them out', async () => {
    const { index } = await WorkspaceIndex.open(ws, { cacheFile: null });
    const paths = [...index.all()].map((f) => f.path).sort();
    assert.deepStrictEqual(paths, [...READABLE].sort());
  });

  it('read_file refuses each as a secret; search_files and list_files never show one', async () => {
    let n = 0;
    const runner = new ToolRunner({ workspace: ws, bounds: { maxCalls: 100, maxChars: 100_000 } });
    const reads = await runner.execute(SECRETS.map((rel) => ({ id: `r${++n}`, name: 'read_file', input: { path: rel } })));
    reads.forEach((r, i) => {
      assert.ok(r.isError, SECRETS[i]);
      assert.match(r.content, /^refused: .*(secret file|holds credentials)/, SECRETS[i]);
    });
    const [search, searchInfra, list] = await runner.execute([
      { id: 's1', name: 'search_files', input: { query: 'LEAKED' } },
      { id: 's2', name: 'search_files', input: { query: 'token', path: 'infra' } },
      { id: 'l1', name: 'list_files', input: {} },
    ]);
    assert.strictEqual(search.content, 'no matches for "LEAKED"');
    const hitFiles = searchInfra.content.split('\n').map((l) => l.slice(0, l.indexOf(':')));
    assert.deepStrictEqual(hitFiles.sort(), READABLE.filter((p) => p.startsWith('infra/')).sort());
    assert.deepStrictEqual(list.content.split('\n').sort(), [...READABLE].sort());
    for (const r of [...reads, search, searchInfra, list]) assert.doesNotMatch(r.content, /LEAKED\d/);
  });

  it('an <edit> of each is refused before it is read', async () => {
    const res = await resolveEdits(
      ws,
      SECRETS.map((rel, i) => ({ path: rel, hunks: [{ search: [`token = "${marker(i)}"`], replace: ['token = ""'] }] })),
    );
    res.forEach((r, i) => {
      assert.ok(!r.ok, SECRETS[i]);
      assert.match(r.reason, new RegExp(`^${SECRETS[i].replace(/\./g, '\\.')} is a secret file \\(name matches "[^"]+"\\): it is never read`));
    });
  });
});
