// Tiny DOM helpers. Text always goes in through textContent / text nodes, never through innerHTML.
import type { AgentId } from '../../src/core/model/types';

type Child = Node | string | null | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  attrs?: Record<string, string | undefined>;
  data?: Record<string, string | undefined>;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.text !== undefined) el.textContent = props.text;
  for (const [k, v] of Object.entries(props.attrs ?? {})) if (v !== undefined) el.setAttribute(k, v);
  for (const [k, v] of Object.entries(props.data ?? {})) if (v !== undefined) el.dataset[k] = v;
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** A codicon glyph (decorative: hidden from screen readers). */
export function icon(name: string, extra = ''): HTMLElement {
  return h('span', { class: `codicon codicon-${name}${extra ? ' ' + extra : ''}`, attrs: { 'aria-hidden': 'true' } });
}

export interface ButtonOpts {
  label: string;
  action: string;
  icon?: string;
  primary?: boolean;
  disabled?: boolean;
  title?: string;
  pressed?: boolean;
  data?: Record<string, string | undefined>;
  /** Stable key so keyboard focus survives a re-render. */
  focusKey?: string;
  iconOnly?: boolean;
}

export function button(o: ButtonOpts): HTMLButtonElement {
  const b = h('button', {
    class: `btn ${o.primary ? 'btn-primary' : 'btn-secondary'}${o.iconOnly ? ' btn-icon' : ''}`,
    attrs: { type: 'button', title: o.title ?? (o.iconOnly ? o.label : undefined), 'aria-label': o.iconOnly ? o.label : undefined },
    data: { action: o.action, focusKey: o.focusKey ?? `${o.action}:${Object.values(o.data ?? {}).join(':')}`, ...o.data },
  });
  if (o.icon) b.append(icon(o.icon));
  if (!o.iconOnly) b.append(h('span', { class: 'btn-label', text: o.label }));
  if (o.pressed !== undefined) b.setAttribute('aria-pressed', String(o.pressed));
  b.disabled = o.disabled === true;
  return b;
}

/** One truth: the names live in core's model (the CLI and the host use them too). */
export { AGENT_NAME, STEP_LABEL } from '../../src/core/model/types';

export const AGENT_ICON: Record<AgentId, string> = {
  CM: 'organization',
  POA: 'briefcase',
  DA: 'paintcan',
  DevA: 'code',
};

/** Maps a free-form speaker name from the retrospective to an agent, when it is one. */
export function agentOfSpeaker(speaker: string): AgentId | null {
  const s = speaker.trim().toLowerCase();
  if (s === 'cm' || s.includes('cape master')) return 'CM';
  if (s === 'poa' || s.includes('product owner')) return 'POA';
  if (s === 'da' || s.includes('designer')) return 'DA';
  if (s === 'deva' || s.includes('developer')) return 'DevA';
  return null;
}

export function avatar(agent: AgentId | null, small = false): HTMLElement {
  const cls = agent ? `avatar avatar-${agent.toLowerCase()}` : 'avatar avatar-other';
  return h('span', { class: cls + (small ? ' avatar-small' : ''), attrs: { 'aria-hidden': 'true' } }, icon(agent ? AGENT_ICON[agent] : 'person'));
}

export function formatInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatUsd(n: number): string {
  if (!Number.isFinite(n)) return '—';
  return n < 0.01 && n > 0 ? `$${n.toFixed(4)}` : `$${n.toFixed(3)}`;
}

export function formatNum(n: number | null | undefined, digits = 2): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '—';
}
