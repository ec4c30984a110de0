// The commerce service's process (`node dist/server.js`): see service.ts.
import { runService } from '@hs/service-kit';
import { service } from './service.ts';

await runService(service);
