// What the voice extractor hands to its caller, and when: the voice text and the raw output text of one push are
// gathered and delivered at the end of the push (a switch from voice to output or back delivers what came before,
// so the order is kept), and a trailing high surrogate is held back until its low half arrives, so no handler call
// ever ends with half a character. end() of the stream delivers everything.

export interface VoiceHandlers {
  /** Decoded voice text (or retrospective turns), in order. */
  onVoice(text: string): void;
  /** Raw JSON text of the top-level "output" value, in order. */
  onOutput?(text: string): void;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** What of `text` to deliver now, and what stays pending: with `hold`, a trailing high surrogate stays. */
function heldBack(text: string, hold: boolean): [deliver: string, pending: string] {
  return hold && isHighSurrogate(text.charCodeAt(text.length - 1)) ? [text.slice(0, -1), text.slice(-1)] : [text, ''];
}

export class VoiceOutbox {
  private voiceText = '';
  private outputText = '';

  constructor(private readonly handlers: VoiceHandlers) {}

  voice(text: string): void {
    if (this.outputText) this.deliverOutput(false);
    this.voiceText += text;
  }

  output(text: string): void {
    if (!this.handlers.onOutput || text === '') return;
    if (this.voiceText) this.deliverVoice(false);
    this.outputText += text;
  }

  /** Delivers what is pending; with `holdSurrogate` (the stream goes on) a trailing high surrogate stays pending. */
  flush(holdSurrogate: boolean): void {
    if (this.voiceText) this.deliverVoice(holdSurrogate);
    if (this.outputText) this.deliverOutput(holdSurrogate);
  }

  private deliverVoice(hold: boolean): void {
    const [text, kept] = heldBack(this.voiceText, hold);
    this.voiceText = kept;
    if (text) this.handlers.onVoice(text);
  }

  private deliverOutput(hold: boolean): void {
    const [text, kept] = heldBack(this.outputText, hold);
    this.outputText = kept;
    if (text) this.handlers.onOutput?.(text);
  }
}
