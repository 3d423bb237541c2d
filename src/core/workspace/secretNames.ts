// Secret files, by name: the one list (SECRET_NAME_PATTERNS) and the one test of a path against it (secretPattern),
// which the read policy (policy.ts), the index, the tools and DevA's edits (edits/propose.ts) all apply. Split from
// policy.ts, which decides the rest of what may be read. And secret variables, by name (SECRET_VARIABLE_NAME): a check's
// environment (checks/checkEnv.ts) and a constant whose value the code map would quote (signaturesTs.ts).
import ignore, { type Ignore } from 'ignore';
import { escapeRegExp } from '../text/regexp';

/**
 * Secret files, by name (gitignore syntax, matched case-insensitively against the workspace-relative path; a pattern
 * without a slash matches the name at any depth). A file matching any of these is never read, listed to the model,
 * indexed or searched. Deliberately strict: `.env.example` is refused too (people do paste real values into it).
 * The README lists them all (under "Tools during a step"; a test keeps the two the same).
 */
export const SECRET_NAME_PATTERNS: readonly string[] = [
  // environment files, their backups (`.env~`, `.env.bak`) and folders (`.envs/.production/`); direnv's `.envrc`
  '.env*',
  '*.env',
  // private keys, certificates with keys, keystores
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  '*.kdbx',
  '*.ppk',
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  // credential stores of package managers and tools, with their backups and variants (`.npmrc.bak`, `.netrc~`,
  // Yarn 2's `.yarnrc.yml`, which holds npmAuthToken)
  '.npmrc*',
  '.yarnrc*',
  '.pypirc*',
  '.netrc*',
  '_netrc*',
  '.git-credentials*',
  '.htpasswd*',
  '.pgpass*',
  '.my.cnf*',
  '.vault-token*',
  '.dockercfg*',
  '.s3cfg*',
  'credentials*',
  'secrets.*',
  // Terraform: state (every resource's attributes, passwords included) and its backups, variable files, CLI logins
  '*.tfstate',
  '*.tfstate.*',
  '*.tfvars',
  '*.tfvars.json',
  '.terraformrc*',
  'terraform.rc',
  // cloud service-account keys and OAuth client secrets (Google Cloud, Firebase)
  'service-account*.json',
  'service_account*.json',
  'serviceaccount*.json',
  '*-firebase-adminsdk-*.json',
  'application_default_credentials.json',
  'client_secret*.json',
  // folders that hold nothing but credentials
  '.ssh/',
  '.aws/',
  '.gnupg/',
  // registry and cluster logins (the folder, so it matches at any depth: a path with a slash is anchored at the root)
  '.docker/',
  '.kube/',
  // …but a folder named like a credentials file is read: an SDK keeps its credential providers' code in
  // `src/credentials/` (its files are still checked by their own names). Negations come last, and only for folders.
  '!credentials*/',
  '!secrets.*/',
];

// An `ignore` matcher remembers the answer for every path it was asked about (and each of its folders), for good:
// matchers that test every path of a walk belong to one WorkspacePolicy and are dropped by its forget(), so a
// 50,000-file workspace does not leave 50,000 answers in memory for the life of the process.
export const secretsMatcher = (): Ignore => ignore({ ignorecase: true }).add(SECRET_NAME_PATTERNS as string[]);
/** For one-off checks (secretPattern): renewed after SHARED_CHECKS paths, so its answers stay few. */
let sharedSecrets = secretsMatcher();
let sharedChecks = 0;
const SHARED_CHECKS = 10_000;

/**
 * Gitignore patterns of the simple kind SECRET_NAME_PATTERNS uses (names with `*`; a trailing `/` for folders; a
 * slash inside anchors to the root; at the end of the list, negated folder names `!name/` that re-include folders the
 * patterns before them matched), as one case-insensitive RegExp over a whole workspace-relative path that matches
 * exactly the paths `ignore({ ignorecase: true })` ignores (the path or one of its folders matches a pattern). Null
 * when a pattern uses other syntax (`?`, `[…]`, `**`, a leading `/`, a negation before a plain pattern or of a file
 * name, negations beside anchored patterns, …): then `ignore` alone decides.
 * Why: a build tests every file's name, and one RegExp costs a tenth of `ignore`'s per-path work (tests check the
 * two agree on many generated paths).
 */
export function simplePatternsRegExp(patterns: readonly string[]): RegExp | null {
  const anyLevel: string[] = [];
  const folders: string[] = [];
  const anchored: string[] = [];
  const reincluded: string[] = [];
  const glob = (body: string) => body.split('*').map(escapeRegExp).join('[^/]*');
  for (const p of patterns) {
    if (p.startsWith('!')) {
      // a folder name re-included: only after every plain pattern, so it overrides them all
      const body = p.slice(1, -1);
      if (!p.endsWith('/') || !/^[A-Za-z0-9._*-]+$/.test(body)) return null;
      reincluded.push(glob(body));
      continue;
    }
    if (reincluded.length) return null;
    if (!/^[A-Za-z0-9._*/-]+$/.test(p) || p.includes('**') || p.startsWith('/') || p.includes('//') || p === '/') return null;
    const folderOnly = p.endsWith('/');
    const body = folderOnly ? p.slice(0, -1) : p;
    const src = glob(body);
    if (body.includes('/')) {
      if (folderOnly) return null;
      anchored.push(src);
    } else (folderOnly ? folders : anyLevel).push(src);
  }
  if (reincluded.length && anchored.length) return null;
  // a folder segment the negations do not re-include (the segment starts here and ends at the next slash)
  const kept = reincluded.length ? `(?!(?:${reincluded.join('|')})/)` : '';
  const alternatives: string[] = [];
  // a name at any depth, as a file (the last segment) or as a folder above the path
  if (anyLevel.length) alternatives.push(`(?:^|/)(?:(?:${anyLevel.join('|')})$|${kept}(?:${anyLevel.join('|')})/)`);
  // a folder name at any depth (a slash follows)
  if (folders.length) alternatives.push(`(?:^|/)${kept}(?:${folders.join('|')})/`);
  // a path from the root, or a folder of it
  if (anchored.length) alternatives.push(`^(?:${anchored.join('|')})(?:/|$)`);
  return alternatives.length ? new RegExp(alternatives.join('|'), 'i') : /(?!)/;
}

/** SECRET_NAME_PATTERNS as one RegExp (see simplePatternsRegExp), or null when only `ignore` can tell. */
const SECRET_PATH = simplePatternsRegExp(SECRET_NAME_PATTERNS);

/** Whether secretPattern() answers most paths with one RegExp (SECRET_PATH) rather than the `ignore` matcher. */
export const SECRET_FAST_PATH = SECRET_PATH !== null;

/** The secret pattern a workspace-relative path matches (or one of its folders does), or null. */
export function secretPattern(relPath: string, matcher?: Ignore): string | null {
  const p = relPath.replace(/\\/g, '/');
  // the RegExp matches exactly what the matcher ignores: most paths stop here; a match asks the matcher for the rule
  if (SECRET_PATH && !SECRET_PATH.test(p)) return null;
  if (!matcher) {
    if (++sharedChecks > SHARED_CHECKS) (sharedSecrets = secretsMatcher()), (sharedChecks = 0);
    matcher = sharedSecrets;
  }
  const r = matcher.test(p);
  return r.ignored || SECRET_PATH ? (r.rule?.pattern ?? 'secret') : null;
}

/**
 * A variable name that looks like a secret's, case-insensitively: one ending in (or with a `_` after) TOKEN, SECRET,
 * KEY, PASSWD or PASSPHRASE (GITHUB_TOKEN, NODE_AUTH_TOKEN, npm's `…:_authToken`, AWS_SECRET_ACCESS_KEY,
 * ANTHROPIC_API_KEY, STRIPE_KEY_LIVE, a constant `apiKey`), one holding PASSWORD anywhere (PGPASSWORD), and `_auth` at
 * its end (npm's basic credentials). SSH_AUTH_SOCK, TOKENIZERS_PARALLELISM, KEYBOARD… do not match.
 */
export const SECRET_VARIABLE_NAME = /(?:TOKEN|SECRET|KEY|PASSWD|PASSPHRASE)(?:_|$)|PASSWORD|_AUTH$/i;
