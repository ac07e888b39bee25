/** Every command id of the extension, in one place (the manifest declares the same ids). */
export const COMMANDS = {
  signIn: 'eoImagery.signIn',
  signOut: 'eoImagery.signOut',
  switchBaseUrl: 'eoImagery.switchBaseUrl',
  trySandbox: 'eoImagery.trySandbox',
  stopSandbox: 'eoImagery.stopSandbox',
  openSettings: 'eoImagery.openSettings',
  connectionActions: 'eoImagery.connectionActions',
  showLog: 'eoImagery.showLog',
} as const;
