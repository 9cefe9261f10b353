/** The emulator arrives with the platform_a monitoring capability. */
export const EMULATOR_VERSION = '0.1.0';
