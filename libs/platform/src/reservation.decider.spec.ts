import { deciderSpec } from '@pss/testkit';
import { reservationDecider, type ReservationEvent } from './reservation.decider';

const reserved = (owner: string): ReservationEvent => ({ type: 'KeyReserved', data: { key: 'domain:loja.example', owner } });
const reserve = (owner: string) => ({ type: 'Reserve' as const, key: 'domain:loja.example', owner, takenMessage: 'taken' });
const release = (owner: string) => ({ type: 'Release' as const, key: 'domain:loja.example', owner });
const spec = deciderSpec(reservationDecider);

describe('reservation decider', () => {
  it('gives a free key to the first owner, and again to the same owner without a new event', () => {
    spec.given([]).when(reserve('a')).then([reserved('a')]);
    spec.given([reserved('a')]).when(reserve('a')).thenNothingHappens();
  });

  it('refuses a key another owner holds with conflict', () => {
    spec.given([reserved('a')]).when(reserve('b')).thenThrows('conflict', /taken/);
  });

  it('frees a key only for its owner, after which another may take it', () => {
    const released: ReservationEvent = { type: 'KeyReleased', data: { key: 'domain:loja.example', owner: 'a' } };
    spec.given([reserved('a')]).when(release('b')).thenNothingHappens();
    spec.given([reserved('a')]).when(release('a')).then([released]);
    spec.given([reserved('a'), released]).when(reserve('b')).then([reserved('b')]);
  });
});
