// GraphQL wording of domain error messages. The domain speaks Placement's REST language (the
// gabbi suite checks those messages byte for byte); a GraphQL caller should read the names of the
// arguments and input fields it sent instead. Only wording changes here, never the meaning.

/** Ordered rewrites: REST parameter and field names to their GraphQL names. */
const REWRITES: readonly (readonly [RegExp, string])[] = [
  [
    /^There must be at least one resources or resources\[\$S\] parameter\.$/,
    'At least one request group must ask for resources.',
  ],
  [
    /^The "group_policy" parameter is required when specifying more than one "resources\{N\}" parameter\.$/,
    'groupPolicy is required when more than one request group asks for resources.',
  ],
  [/^Invalid resource class in resources parameter: /, ''],
  [/^Invalid query string parameters: /, ''],
  [/^Object action update failed because: /, ''],
  [/`same_subtree` query param/g, 'sameSubtree'],
  [/`same_subtree`/g, 'sameSubtree'],
  [/same_subtree/g, 'sameSubtree'],
  [/\bgroup_policy=isolate\b/g, 'groupPolicy: ISOLATE'],
  [/\bpass limit\b/g, 'pass `limit`'],
  [/\broot_required\b/g, 'rootRequired'],
  [/\bmember_of\b/g, 'memberOf'],
  [/\bin_tree\b/g, 'inTree'],
  [/\ballocation_ratio\b/g, 'allocationRatio'],
  [/\bmin_unit\b/g, 'minUnit'],
  [/\bmax_unit\b/g, 'maxUnit'],
  [/\bstep_size\b/g, 'stepSize'],
  [/\bproject_id and user_id\b/g, 'projectId and userId'],
  [/\bconsumer_type\b/g, 'consumerType'],
];

/** The message a GraphQL caller reads for a domain error message. */
export function graphqlWording(message: string): string {
  let out = message;
  for (const [pattern, replacement] of REWRITES) {
    out = out.replace(pattern, replacement);
  }
  return out;
}
