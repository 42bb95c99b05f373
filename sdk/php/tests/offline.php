<?php
// Retries against a local `php -S` server (tests/flaky-router.php) and webhook signatures.
declare(strict_types=1);

use Chapar\ChaparException;
use Chapar\Client;
use Chapar\Webhook;

/** Serves the statuses in order and calls $body with a client of that server and a reader of the requests seen. */
function flaky(array $answers, callable $body): void
{
    $state = tempnam(sys_get_temp_dir(), 'chapar-flaky');
    file_put_contents($state, implode("\n", $answers));
    $sock = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($sock, false), ':'), 1);
    fclose($sock);
    $proc = proc_open([PHP_BINARY, '-S', "127.0.0.1:{$port}", __DIR__ . '/flaky-router.php'], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, ['FLAKY_STATE' => $state]);
    try {
        $deadline = microtime(true) + 30; // a busy machine starts `php -S` slowly
        while (@fsockopen('127.0.0.1', $port) === false && microtime(true) < $deadline) {
            usleep(50_000);
        }
        $seen = static fn (): array => array_map(static fn ($l) => explode(' ', $l), file($state . '.log', FILE_IGNORE_NEW_LINES) ?: []);
        $body(new Client("http://127.0.0.1:{$port}", 'chp_live_x', backoff: 0.05), $seen);
    } finally {
        proc_terminate($proc);
        proc_close($proc);
        @unlink($state);
        @unlink($state . '.log');
    }
}

$tests['5xx and 429 are retried with one Idempotency-Key, waiting Retry-After'] = static function (): void {
    flaky(['503', '429:1', '201'], static function (Client $c, callable $seen): void {
        check($c->send('300012345', ['09121234567'], 'سلام')['id'] === 7, 'the third answer');
        $s = $seen();
        check(count($s) === 3, '3 tries');
        check($s[0][1] !== '' && $s[0][1] === $s[1][1] && $s[1][1] === $s[2][1], 'one key: ' . json_encode($s));
        check((float) $s[2][0] - (float) $s[1][0] >= 0.9, 'Retry-After waited');
    });
};

$tests['gives up after the retries; 422 is not retried'] = static function (): void {
    flaky(['500', '500', '500', '500', '422'], static function (Client $c, callable $seen): void {
        $e = caught(static fn () => $c->send('x', [], 'x', ['idempotency_key' => 'k-1']));
        check($e !== null && $e->getStatus() === 500, 'the last 500');
        check(array_column($seen(), 1) === ['k-1', 'k-1', 'k-1', 'k-1'], 'same key on each try');
        $e = caught(static fn () => $c->send('x', ['1'], 'x'));
        check($e !== null && $e->getStatus() === 422 && $e->getMessageCode() === '422' && $e->getMessage() === 'خطای سرور', '422');
        check(count($seen()) === 5, '422 not retried');
    });
};

$tests['a network error is a NetworkException after the retries'] = static function (): void {
    $e = caught(static fn () => (new Client('http://127.0.0.1:1', 'k', maxRetries: 1, backoff: 0.01))->credit());
    check($e instanceof Chapar\NetworkException && $e->getStatus() === 0, 'network error');
};

$tests['a webhook signature of the Go signer verifies, tampered it does not'] = static function (): void {
    $raw = getenv('CHAPAR_WEBHOOK_VECTOR');
    if (!$raw) {
        throw new Skip('CHAPAR_WEBHOOK_VECTOR not set (scripts/sdk-test.sh sets it)');
    }
    $v = json_decode($raw, true, flags: JSON_THROW_ON_ERROR);
    check(Webhook::sign($v['secret'], $v['timestamp'], $v['body']) === $v['signature'], 'same signature as Go');
    check(Webhook::verify($v['secret'], $v['timestamp'], $v['signature'], $v['body']), 'verifies');
    check(Webhook::verify($v['secret'], $v['timestamp'], 'v1=00,' . $v['signature'], $v['body']), 'one of several');
    check(!Webhook::verify($v['secret'], $v['timestamp'], $v['signature'], $v['body'] . ' '), 'tampered body');
    check(!Webhook::verify('whsec_other', $v['timestamp'], $v['signature'], $v['body']), 'other secret');
    check(!Webhook::verify($v['secret'], $v['timestamp'], $v['signature'], $v['body'], now: (int) $v['timestamp'] + 301), 'stale');
};
