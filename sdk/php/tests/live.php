<?php
// Against a running Chapar: CHAPAR_URL, CHAPAR_KEY, CHAPAR_LINE and SIM_URL (the carrier
// simulator, which delivers and injects received messages).
declare(strict_types=1);

use Chapar\Client;

function live(): array
{
    [$url, $key, $sim] = [getenv('CHAPAR_URL'), getenv('CHAPAR_KEY'), getenv('SIM_URL')];
    if (!$url || !$key || !$sim) {
        throw new Skip('CHAPAR_URL, CHAPAR_KEY and SIM_URL not set (scripts/sdk-test.sh)');
    }
    return [new Client($url, $key), (string) getenv('CHAPAR_LINE')];
}

function sim(string $path, array $body): int
{
    $ctx = stream_context_create(['http' => ['method' => 'POST', 'header' => 'Content-Type: application/json',
        'content' => json_encode($body, JSON_UNESCAPED_UNICODE), 'ignore_errors' => true, 'timeout' => 10]]);
    file_get_contents(getenv('SIM_URL') . $path, false, $ctx);
    $headers = function_exists('http_get_last_response_headers') ? (http_get_last_response_headers() ?? []) : ($http_response_header ?? []);
    preg_match('#^HTTP/\S+\s+(\d{3})#', $headers[0] ?? '', $m);
    return (int) ($m[1] ?? 0);
}

function digits(int $n): string
{
    $s = '';
    for ($i = 0; $i < $n; $i++) {
        $s .= (string) random_int(0, 9);
    }
    return $s;
}

/** A fresh number the simulator is told to deliver to. */
function mobile(): string
{
    $local = '0912' . digits(7);
    sim('/control/outcome', ['to' => '98' . substr($local, 1), 'stat' => 'DELIVRD']);
    return $local;
}

function waitFor(callable $fn, string $what, float $timeout = 90.0): mixed
{
    $end = microtime(true) + $timeout;
    while (microtime(true) < $end) {
        if ($got = $fn()) {
            return $got;
        }
        usleep(500_000);
    }
    throw new RuntimeException("timed out waiting for {$what}");
}

$tests['send, status by id and by local_id reach delivered; the credit goes down'] = static function (): void {
    [$c, $line] = live();
    $before = $c->credit();
    [$to, $localId] = [mobile(), 'php-' . digits(12)];
    $sent = $c->send($line, [$to], 'سلام از کتابخانهٔ پی‌اچ‌پی', ['local_id' => $localId]);
    check($sent['id'] > 0 && $sent['sender'] === $line, 'accepted: ' . json_encode($sent));
    waitFor(static fn () => $c->status($sent['id'])['delivered'] === 1, 'delivered');
    $st = $c->statusByLocalId($localId, $to);
    check($st['id'] === $sent['id'] && $st['local_id'] === $localId && $st['recipient']['status'] === 2, 'by local_id: ' . json_encode($st));
    check($c->credit() <= $before - $sent['price'], 'credit went down by the price');
};

$tests['the same Idempotency-Key is one send'] = static function (): void {
    [$c, $line] = live();
    [$to, $key] = [mobile(), 'php-idem-' . digits(16)];
    $first = $c->send($line, [$to], 'یک بار', ['idempotency_key' => $key]);
    $again = $c->send($line, [$to], 'یک بار', ['idempotency_key' => $key]);
    check($first['id'] === $again['id'], 'one send');
};

$tests['an approved pattern is sent and delivered'] = static function (): void {
    [$c] = live();
    [$to, $otp] = [mobile(), (string) random_int(10_000_000, 99_999_999)];
    $sent = $c->sendPattern(getenv('CHAPAR_PATTERN') ?: 'login-otp', $to, ['code' => $otp], ['local_id' => "php-otp-{$otp}"]);
    check($sent['type'] === 'pattern_otp', 'pattern_otp: ' . json_encode($sent));
    waitFor(static fn () => ($c->statusByLocalId("php-otp-{$otp}", $to)['recipient']['status'] ?? 0) === 2, 'pattern delivered');
};

$tests['inbox since: a message sent to the line is read after the cursor'] = static function (): void {
    [$c, $line] = live();
    $cursor = 0;
    while ($page = $c->inboxSince($cursor, 500)) {
        $cursor = end($page)['id'];
    }
    [$text, $from] = ['پیام دریافتی پی‌اچ‌پی ' . digits(6), '98912' . digits(7)];
    check(sim('/mo', ['operator' => 'mci', 'from' => $from, 'to' => $line, 'text' => $text]) === 202, 'simulator took the message');
    $got = waitFor(static function () use ($c, $cursor, $text) {
        foreach ($c->inboxSince($cursor, 500) as $m) {
            if ($m['text'] === $text) {
                return $m;
            }
        }
        return null;
    }, 'inbound message');
    check($got['sender'] === $from && $got['line'] === $line && $got['id'] > $cursor, 'message: ' . json_encode($got));
};

$tests['an invalid number is a ChaparException with the Persian message and code'] = static function (): void {
    [$c, $line] = live();
    $e = caught(static fn () => $c->send($line, ['12345'], 'سلام'));
    check($e !== null && $e->getStatus() === 422 && $e->getMessageCode() !== '', '422 with a code');
    check(preg_match('/\p{Arabic}/u', $e->getMessage()) === 1, 'Persian message: ' . $e->getMessage());
    check(!empty($e->getErrors()['numbers']), 'numbers field');
    $e = caught(static fn () => (new Client(getenv('CHAPAR_URL'), 'chp_live_000000000000_bad'))->credit());
    check($e !== null && $e->getStatus() === 401 && preg_match('/\p{Arabic}/u', $e->getMessage()) === 1, '401 in Persian');
};
