import { defineErrors } from '../shared/errors';

/** IPFS pins of paid files and the trustless gateway (spec §2 admin: IPFS pinning; §3 Account preferred IPFS gateway). */
export const IpfsErrors = defineErrors({
  pinNotFound: { code: 'PIN_NOT_FOUND', status: 404, message: 'Pin not found' },
  notFailed: { code: 'PIN_NOT_FAILED', status: 409, message: 'Only a failed pin can be retried' },
  notPinning: { code: 'PIN_NOT_PINNING', status: 409, message: 'This pin is not being pinned' },
  alreadyUnpinned: { code: 'PIN_UNPINNED', status: 409, message: 'This pin has already been removed' },
  reasonRequired: { code: 'REASON_REQUIRED', status: 400, message: 'Enter a reason' },
  blockNotFound: { code: 'BLOCK_NOT_FOUND', status: 404, message: 'No pinned content has this CID' },
  notAcceptable: { code: 'NOT_ACCEPTABLE', status: 406, message: 'Ask for application/vnd.ipld.raw or application/vnd.ipld.car' },
  invalidGateway: { code: 'INVALID_IPFS_GATEWAY', status: 400, message: 'Enter a valid IPFS gateway address' },
});
