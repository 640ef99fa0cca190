/** Test worker: fails to start the way a taken port does. */
import { announceFailure } from '../../../src/server/threads/thread-side.ts';

const error = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4321'), { code: 'EADDRINUSE' });
announceFailure(error);
