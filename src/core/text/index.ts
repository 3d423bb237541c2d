// Language-neutral text similarity: character bigrams over code points (they work for Japanese without word
// segmentation as well as for English). KPT grouping, the reproducibility metric and the context packing's section
// scores all count shared bigrams through here; each domain keeps its own normalisation of the text before it.
// Cutting text for the model without splitting a character (cut.ts) lives here too, writing a size in bytes for a
// person (size.ts), a file's lines as tools and excerpts number them (lines.ts), and the Markdown line rules (fences,
// headings) every reader of a team file uses (markdown.ts), a value as one word of a shell command line (shell.ts), and
// text without terminal escape sequences and control characters (controls.ts), the list items that only say there
// is nothing ("なし", "N/A": placeholder.ts), a literal inside a regular expression (regexp.ts), trailing blanks
// cut by a walk back from the end (blanks.ts), many strings replaced in a text in one pass (needles.ts), and how
// deep the JSON and YAML CAPE reads may nest (nesting.ts); a TOML manifest parsed and its tables looked up (toml.ts), an INI file's sections read (ini.ts); strings in order, taken lazily (ascending.ts).
export * from './ascending';
export * from './bigrams';
export * from './blanks';
export * from './controls';
export * from './ini';
export * from './cut';
export * from './lines';
export * from './markdown';
export * from './needles';
export * from './nesting';
export * from './placeholder';
export * from './regexp';
export * from './size';
export * from './shell';
export * from './toml';
