// Token counts estimated from text, for the places that need one before (or without) the API's usage: the one rule
// of how many tokens a text is. Claude's tokenizer averages about 3.5–4 ASCII characters per token in prose and
// code (3 in dense code and short words), and about 1–1.5 characters per token in Japanese and Chinese; other
// scripts fall between. A count by ASCII characters alone (chars / 4) takes a Japanese text for a third or a quarter
// of its real size. So each estimate counts ASCII and other characters apart, and says which way it errs:
//  - tokensAtLeast: a low estimate (4 ASCII characters a token, 2 other characters a token). Cache marks are placed
//    only where this reaches the model's minimum cacheable prefix, so a kept mark is almost never one the API
//    ignores, while a Japanese prompt is no longer taken for too short to cache;
//  - tokensAtMost: a high estimate (3 ASCII characters a token, every other character a token), the worst case the
//    session cost cap prices before a request, and the output of a reply that broke off before the API counted it.
// Emoji and rare characters can take several tokens each; both estimates ignore that (they are rare in prompts).

function counts(text: string): { ascii: number; other: number } {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) ascii++;
    // a surrogate pair is one character
    else if (c < 0xdc00 || c > 0xdfff) other++;
  }
  return { ascii, other };
}

/** A low estimate of a text's tokens: ceil(ASCII characters / 4 + other characters / 2). */
export function tokensAtLeast(text: string): number {
  const { ascii, other } = counts(text);
  return Math.ceil(ascii / 4 + other / 2);
}

/** A high estimate of a text's tokens: ceil(ASCII characters / 3) + other characters. */
export function tokensAtMost(text: string): number {
  const { ascii, other } = counts(text);
  return Math.ceil(ascii / 3) + other;
}
