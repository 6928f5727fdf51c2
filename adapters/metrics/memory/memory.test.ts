import { metricsConformance } from '../conformance/metrics-conformance.ts';
import { createMemoryMetrics } from './index.ts';

metricsConformance('memory', () => createMemoryMetrics());
