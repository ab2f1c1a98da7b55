// GraphQL types and root fields of capacity planning (drain-plan); filled in with its feature.
export {};
