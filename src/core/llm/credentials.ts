// The environment variables that hold a credential of the Anthropic API: the one list. The CLI reads its key from
// API_KEY_VARIABLE (cli/settings.ts); ANTHROPIC_AUTH_TOKEN is the SDK's other credential (a bearer token), never read
// by CAPE (the client passes its key explicitly) but a credential all the same. The checks run the project's own
// commands without any of them (checks/checkEnv.ts): a test that prints its environment must not hand the key to the
// model or to cape/.

/** Where the CLI reads the API key when no flag gives it (--api-key-file, --api-key). */
export const API_KEY_VARIABLE = 'ANTHROPIC_API_KEY';

/**
 * How the CLI's messages say to give it the key: the ways that keep it off the command line (`--api-key KEY` works
 * too, with a warning: cli/settings.ts).
 */
export const CLI_KEY_WAYS = `${API_KEY_VARIABLE} or --api-key-file PATH`;

/** Every variable that holds an Anthropic credential. */
export const CREDENTIAL_VARIABLES: readonly string[] = [API_KEY_VARIABLE, 'ANTHROPIC_AUTH_TOKEN'];
