// Accept-header negotiation as webob does it (upstream: webob.acceptparse
// AcceptValidHeader.acceptable_offers, used by placement/util.py check_accept and by webob's
// choice of an html, json or plain error body).

interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

function parseRanges(header: string): MediaRange[] | undefined {
  const out: MediaRange[] = [];
  for (const raw of header.split(',')) {
    const part = raw.trim();
    if (part === '') {
      continue;
    }
    const [media, ...params] = part.split(';').map((s) => s.trim());
    const m = /^([^\s/]+)\/([^\s/]+)$/.exec(media ?? '');
    if (!m) {
      return undefined;
    }
    let q = 1;
    for (const p of params) {
      const qm = /^q\s*=\s*([01](\.\d{0,3})?)$/i.exec(p);
      if (qm) {
        q = Number(qm[1]);
      }
    }
    out.push({ type: m[1]!.toLowerCase(), subtype: m[2]!.toLowerCase(), q });
  }
  return out;
}

function specificity(r: MediaRange, type: string, subtype: string): number {
  if (r.type === type && r.subtype === subtype) {
    return 3;
  }
  if (r.type === type && r.subtype === '*') {
    return 2;
  }
  if (r.type === '*' && r.subtype === '*') {
    return 1;
  }
  return 0;
}

/**
 * The offers `header` accepts, best first (q descending, ties in offer order). A missing or
 * unparsable header accepts every offer.
 */
export function acceptableOffers(header: string | undefined, offers: readonly string[]): string[] {
  const ranges = header === undefined ? undefined : parseRanges(header);
  if (!ranges) {
    return [...offers];
  }
  const scored: { offer: string; q: number }[] = [];
  for (const offer of offers) {
    const [type = '', subtype = ''] = offer.toLowerCase().split('/');
    let best = 0;
    let q = 0;
    for (const r of ranges) {
      const s = specificity(r, type, subtype);
      if (s > best) {
        best = s;
        q = r.q;
      }
    }
    if (best > 0 && q > 0) {
      scored.push({ offer, q });
    }
  }
  return scored.sort((a, b) => b.q - a.q).map((s) => s.offer);
}
