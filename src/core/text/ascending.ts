// Strings in ascending order, taken lazily: for a consumer that needs only the first few of many (the DevA map's
// unranked paths, pack.ts).

/**
 * The strings in the order Array.prototype.sort gives them, taken lazily (a min-heap; `items` is reordered): the map of
 * a large workspace lists a few hundred of its tens of thousands of unranked paths, and a consumer that stops after k
 * of n pays about 2n + 2k log n comparisons instead of a whole sort's n log n.
 */
export function* ascending(items: string[]): Generator<string> {
  const h = items;
  const down = (at: number, n: number) => {
    for (let i = at, c = 2 * i + 1; c < n; i = c, c = 2 * i + 1) {
      if (c + 1 < n && h[c + 1] < h[c]) c++;
      if (!(h[c] < h[i])) return;
      [h[i], h[c]] = [h[c], h[i]];
    }
  };
  for (let i = (h.length >> 1) - 1; i >= 0; i--) down(i, h.length);
  for (let n = h.length; n > 0; n--) {
    yield h[0];
    h[0] = h[n - 1];
    down(0, n - 1);
  }
}
