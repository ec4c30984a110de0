// The address rule is shared with the browsers (packages/browser): one list of what is not public.
export { isForbiddenAddress, isLoopbackAddress } from '@hs/browser/forbidden-address';
