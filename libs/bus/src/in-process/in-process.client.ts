import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { InProcessBroker } from './in-process.broker';

/** The client half of the in-process transport: sends requests and events through the application's broker. */
export class InProcessClient extends ClientProxy {
  constructor(private readonly broker: InProcessBroker) {
    super();
  }

  async connect(): Promise<void> {
    this._status$.next('connected');
  }

  async close(): Promise<void> {
    this._status$.next('disconnected');
  }

  override on(): never {
    throw new Error('The in-process transport emits no client events; observe `status` instead');
  }

  unwrap<T>(): T {
    return this.broker as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    return this.broker.request(this.normalizePattern(packet.pattern), packet.data, callback);
  }

  // Resolves once every handler has finished, so a publisher that advances its checkpoint afterwards gets
  // at-least-once delivery.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Nest's ClientProxy declares the result so
  protected async dispatchEvent(packet: ReadPacket): Promise<any> {
    await this.broker.publish(this.normalizePattern(packet.pattern), packet.data);
  }
}
