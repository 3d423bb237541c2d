// The team's cape/ folder: the asset loader, the one frontmatter codec (gray-matter, never evaluating ---js),
// the shipped prompts and templates, and the init generator that writes cape/ from the questionnaire.
export * from './assets';
export * from './frontmatter';
export * from './init';
export * from './prompts';
