import { createHostGuard } from '@ewp/http-guard';

const guard = createHostGuard({ bindHost: '127.0.0.1' }); // loopback names only
console.log(guard({ host: '127.0.0.1:8765' })); // { ok: true }
console.log(guard({ host: 'attacker.example:8765' })); // { ok: false, reason: 'forbidden host' }: a DNS-rebinding page
console.log(guard({ host: 'localhost:8765', origin: 'https://evil.example' })); // { ok: false, reason: 'forbidden origin' }
