// The flags of the test tools' command lines (the fake server's CLI, `npm run trial`): node:util parseArgs, strict,
// with -h/--help printing the usage; a bad flag ends the process through the tool's own `fail`.
import { parseArgs, type ParseArgsConfig } from 'util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function readFlags<O extends Options>(argv: string[], options: O, usage: string, fail: (message: string) => never) {
  const help = { help: { type: 'boolean', short: 'h' } } as const;
  type Values = ReturnType<typeof parseArgs<{ args: string[]; options: O & typeof help; strict: true; allowPositionals: false }>>['values'];
  let values: Values;
  try {
    values = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { ...options, ...help } }).values as Values;
  } catch (e) {
    fail((e as Error).message);
  }
  if ((values as { help?: boolean }).help) {
    process.stdout.write(usage + '\n');
    process.exit(0);
  }
  return values;
}
