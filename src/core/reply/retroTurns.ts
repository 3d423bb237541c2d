// The retrospective's conversation as voice: the CM's retrospective reply has no "voice" key but a top-level
// "conversation" array of turns ({speaker, text}, or agent/name and message/content). Each turn is voiced as
// "Speaker: text", turns separated by a blank line; the text streams as it arrives once the speaker is known, and a
// text that comes before its speaker is held and voiced when its turn object closes (or the stream ends).
// The voice extractor (voiceStream.ts) says which turn and key a string belongs to; this class owns the turn's state.

import type { VoiceOutbox } from './voiceOutbox';

const TURN_TEXT_KEYS = new Set(['text', 'message', 'content']);
const TURN_SPEAKER_KEYS = new Set(['speaker', 'agent', 'name']);
const MAX_SPEAKER = 200;

const P_NONE = 0;
const P_SPEAKER = 1;
const P_TEXT = 2; // streamed
const P_HELD = 3; // text seen before its speaker

export class RetroTurns {
  /** Turns voiced so far. */
  count = 0;
  private speaker = '';
  private speakerSeen = false;
  private textStarted = false;
  private held: string | null = null;
  private part = P_NONE;

  constructor(private readonly out: VoiceOutbox) {}

  /** A turn object opens. */
  begin(): void {
    this.speaker = '';
    this.speakerSeen = false;
    this.textStarted = false;
    this.held = null;
  }

  /** A string value starts under `key` in the current turn: true when its characters belong to the turn. */
  valueStarts(key: string): boolean {
    this.part = P_NONE;
    if (TURN_SPEAKER_KEYS.has(key) && !this.speakerSeen) {
      this.part = P_SPEAKER;
      this.speaker = '';
    } else if (TURN_TEXT_KEYS.has(key) && !this.textStarted) {
      this.textStarted = true;
      if (this.speakerSeen) {
        this.header();
        this.part = P_TEXT;
      } else {
        this.part = P_HELD;
        this.held = '';
      }
    }
    return this.part !== P_NONE;
  }

  /** Decoded characters of the string valueStarts accepted. */
  write(text: string): void {
    switch (this.part) {
      case P_TEXT:
        this.out.voice(text);
        break;
      case P_SPEAKER:
        if (this.speaker.length < MAX_SPEAKER) this.speaker += text;
        break;
      case P_HELD:
        this.held += text;
        break;
    }
  }

  /** That string's closing quote was read. */
  valueEnds(): void {
    if (this.part === P_SPEAKER) this.speakerSeen = true;
    this.part = P_NONE;
  }

  /** The turn object closed, or the stream ended: voices a held text with its header. */
  finish(): void {
    if (this.held !== null) {
      const body = this.held;
      this.held = null;
      this.header();
      this.out.voice(body);
    }
  }

  private header(): void {
    const sep = this.count++ > 0 ? '\n\n' : '';
    const speaker = this.speaker.trim();
    this.out.voice(sep + (speaker ? speaker + ': ' : ''));
  }
}
