// GraphQL types and root fields of capacity planning (simulation); filled in with its feature.
export {};
