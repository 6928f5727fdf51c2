import { runExclusiveSectionsConformance } from '../conformance/exclusive-sections-conformance.ts';
import { createInProcessSections } from './index.ts';

// One process's queues: two instances stand for two processes, which this adapter does not coordinate.
runExclusiveSectionsConformance('in-process', async () => createInProcessSections(), { sharedAcrossInstances: false });
