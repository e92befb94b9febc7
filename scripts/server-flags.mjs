// The Node flags the production server runs with: `npm start` passes them (package.json), and the scripts that
// start the server themselves to measure it (bench, Lighthouse) pass the same (docs/decisions/0052).
// A young generation of 64 MB (V8's default is 16): a page render allocates a few MB that die young, and with the
// default the scavenger ran several times per distinct search.
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64']
