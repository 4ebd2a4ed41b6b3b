import type { StartedTestContainer } from 'testcontainers';
import { CONTAINER_IMAGES } from './container-images';
import { CONTAINER_TIMEOUT_MS } from './containers';
import { freePort } from './free-port';

/** The listener clients reach from the host; BROKER and CONTROLLER stay inside the container. */
const CLIENT_PORT = 9092;

export interface StartedKafka {
  container: StartedTestContainer;
  brokers: string[];
}

/**
 * One combined broker and controller on Apache's image in KRaft mode, as docker-compose.yml runs it
 * (@testcontainers/kafka drives Confluent's image only). Kafka hands clients the advertised address, which must
 * be the host's mapped port: that port is chosen before the start, because the image reads its listeners once.
 */
export async function startKafka(): Promise<StartedKafka> {
  // Loaded on use, as container-runtime.ts does: every test imports the test kit, few start containers.
  const { GenericContainer, getContainerRuntimeClient, Wait } = await import('testcontainers');
  const hostPort = await freePort();
  const { host } = (await getContainerRuntimeClient()).info.containerRuntime;
  const container = await new GenericContainer(CONTAINER_IMAGES.kafka)
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: `PLAINTEXT://:${CLIENT_PORT},BROKER://:9093,CONTROLLER://:9094`,
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${host}:${hostPort},BROKER://localhost:9093`,
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'BROKER:PLAINTEXT,PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_INTER_BROKER_LISTENER_NAME: 'BROKER',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9094',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withExposedPorts({ container: CLIENT_PORT, host: hostPort })
    // The broker logs this once its metadata is loaded and it serves clients (testcontainers-java waits for it too).
    .withWaitStrategy(Wait.forLogMessage(/Transitioning from RECOVERY to RUNNING/))
    .withStartupTimeout(CONTAINER_TIMEOUT_MS)
    .start();
  return { container, brokers: [`${host}:${hostPort}`] };
}
