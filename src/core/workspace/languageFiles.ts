// The source files of the languages whose conventions the workspace code reads beyond plain text (Python's, Go's
// and Rust's imports, symbols and test names; C's and C++'s symbols and test names), by extension. fileKinds.ts and testFiles.ts build on them.
/** A Python source or stub file, by its extension. */
export const PYTHON_FILE = /\.pyi?$/;
/** A Go source file (a test too), by its extension. */
export const GO_FILE = /\.go$/;
/** A Rust source file, by its extension. */
export const RUST_FILE = /\.rs$/i;
/** A C or C++ source or header file, by its extension. */
export const C_FAMILY_FILE = /\.(?:c|h|cc|cpp|cxx|c\+\+|hh|hpp|hxx|h\+\+|ipp|inl)$/i;
/** A C or C++ header, whose declarations are the API its includers see. */
export const C_HEADER_FILE = /\.(?:h|hh|hpp|hxx|h\+\+|ipp|inl)$/i;

/** The headers a C/C++ source file's own declarations are in, by its name (`str.c` → `str.h`, `str.hpp`, …); none for a header or another language's file. */
export function headerTwinPaths(relPath: string): string[] {
  if (!C_FAMILY_FILE.test(relPath) || C_HEADER_FILE.test(relPath)) return [];
  const stem = relPath.replace(/\.[^./]+$/, '');
  return ['.h', '.hpp', '.hh', '.hxx'].map((ext) => stem + ext);
}
