// Python's str(uuid.UUID(v)): the canonical dashed lower-case form of a uuid-like string
// (upstream: handlers normalise consumer and provider uuids this way).

/** The canonical form of a string that passed isUuidLike (urn:/uuid:, braces, dashes removed). */
export function canonicalUuid(v: string): string {
  const hex = v
    .replace(/urn:/g, '')
    .replace(/uuid:/g, '')
    .replace(/^[{}]+|[{}]+$/g, '')
    .replace(/-/g, '')
    .toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
