// DevA's proposed files: what a <file> or <edit> block becomes, and its status from proposal to applied. Part of the
// shared vocabulary of core (model/index.ts).

export type FileAction = 'create' | 'modify';
export type FileStatus = 'proposed' | 'applied' | 'refused';

export interface ProposedFile {
  /** The path exactly as the model wrote it. */
  path: string;
  /** Normalised workspace-relative path with forward slashes (when safe). */
  relPath?: string;
  /** Absolute path inside the workspace (when safe). */
  absPath?: string;
  action: FileAction;
  status: FileStatus;
  /** Why the file was refused. */
  reason?: string;
  /** Proposed content. */
  content: string;
  /** Current content on disk for 'modify'. */
  currentContent?: string;
  /**
   * SHA-256 (hex, of the UTF-8 text) of the file as DevA's proposal was made against it, for 'modify': the step
   * record keeps it instead of the text, and proposals reloaded from the record (resume, window reload) check the
   * disk against it (files/proposalBase.ts), not against the disk at reload.
   */
  baseSha256?: string;
  /** From an <edit> block (search/replace hunks) rather than a whole <file>. */
  edit?: boolean;
  /** Shown with the proposal, e.g. WARNING_UNREAD_REWRITE. */
  warning?: string;
}

/** The warning on a <file> that rewrites an existing file DevA neither read nor received whole. */
export const WARNING_UNREAD_REWRITE = 'rewrites a file that was not read';
