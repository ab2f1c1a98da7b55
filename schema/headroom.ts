// GraphQL types and root fields of capacity planning (headroom); filled in with its feature.
export {};
