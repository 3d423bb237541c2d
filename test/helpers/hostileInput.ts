// Hostile shapes of untrusted text (a model's reply, a cape/ file of a cloned repository) the tests feed the readers,
// built in one place so each test says what it checks, not how the shape is made.

/**
 * A frontmatter whose `key` is a list of lists `levels` deep, 10 wide, written with YAML aliases ("billion laughs"):
 * under 100 characters a level, 10^levels strings once expanded.
 */
export function aliasBomb(levels: number, key = 'type'): string {
  let y = '---\na0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels; i++) y += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]\n`;
  return `${y}${key}: *a${levels - 1}\n---\n`;
}
