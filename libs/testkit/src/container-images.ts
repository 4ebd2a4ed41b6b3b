/**
 * The engine releases the testcontainers suites run, and the very ones docker-compose.yml pins (the compose smoke
 * spec holds the two together): what CI proves against is what `docker compose up` starts. Each tag is a full
 * release, never a moving one, so a green run names the versions it ran. Why these: docs/decisions.md, issue 33.
 */
export const CONTAINER_IMAGES = {
  /** The 2026 LTS of KurrentDB (EventStoreDB's successor), from Kurrent's own LTS registry. */
  kurrentdb: 'docker.kurrent.io/kurrent-lts/kurrentdb:26.0.3',
  /** Apache's image, KRaft only (Kafka 4 has no ZooKeeper). */
  kafka: 'apache/kafka:4.3.1',
  mongo: 'mongo:8.0.26',
  mailpit: 'axllent/mailpit:v1.30.5',
} as const;
