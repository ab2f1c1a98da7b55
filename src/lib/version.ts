// Version constants.
import pkg from '../../package.json';

/** berth's package version. */
export const BERTH_VERSION: string = pkg.version;
/** Highest Placement microversion whose semantics berth implements. */
export const MAX_MICROVERSION = '1.39';
