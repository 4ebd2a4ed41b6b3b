import { projectionReplayBench } from './projection-replay.bench';
import { markdownTable } from './report';
projectionReplayBench().then((rows) => console.log(markdownTable(rows)));
