// The analyser's version, recorded in every report so an old report can be told from a new one.
// Bump the minor version when rules change what they find.
export const ANALYZER_VERSION = '0.117.0';
