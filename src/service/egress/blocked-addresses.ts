/**
 * The address classifier lives in src/contract (the one module the embedded API and the site's
 * subscriptions may both import): one list of refused ranges for checks, channels and
 * subscription webhooks.
 */
export { blockedReason, embeddedIpv4, ipv6Groups } from '../../contract/blocked-addresses.ts';
