/** Sent in User-Agent as `porchlight/<version>`; a test keeps it equal to package.json. */
export const CLIENT_VERSION = '0.1.0';
export const USER_AGENT = `porchlight/${CLIENT_VERSION}`;
