// What a cape/ folder holds: its top-level folders (5_sessions/ apart), the framework files init copies from
// prompts/templates (`type: generic`) and the project files it writes from the questionnaire (`type: input`), and the
// team files the session quotes by name. The loader (assets.ts) reports the expected ones that are missing; init,
// the prompts and the session's sources name them from here.

/** The top-level folders of cape/ that hold assets (5_sessions/ holds artifacts and is never loaded here). */
export const CAPE_FOLDERS = ['0_team', '1_product', '2_design', '3_development', '4_orchestration'] as const;
export type CapeFolder = (typeof CAPE_FOLDERS)[number];

/** The team's Definition of Ready, Definition of Done and session process (the session quotes them by name). */
export const DOR_FILE = '0_team/3_dor.md';
export const DOD_FILE = '0_team/4_dod.md';
export const PROCESS_FILE = '4_orchestration/1_process.md';

/** Framework files shipped in prompts/templates/ and copied into cape/ by init (frontmatter `type: generic`). */
export const GENERIC_CAPE_FILES = [
  '0_team/1_protocol.md',
  '0_team/2_culture.md',
  DOR_FILE,
  DOD_FILE,
  '1_product/0_role.md',
  '2_design/0_role.md',
  '3_development/0_role.md',
  '4_orchestration/0_role.md',
  PROCESS_FILE,
  '4_orchestration/2_metrics.md',
] as const;

/** Project-specific files written by the init questionnaire (frontmatter `type: input`); see prompts/inputs.json. */
export const INPUT_CAPE_FILES = [
  '1_product/1_mvv.md',
  '1_product/2_persona.md',
  '1_product/3_milestone.md',
  '1_product/4_backlog.md',
  '2_design/1_principle.md',
  '2_design/2_brand.md',
  '3_development/1_architecture.md',
  '3_development/2_guideline.md',
  '3_development/3_standards.md',
] as const;
