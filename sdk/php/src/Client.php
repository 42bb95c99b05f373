<?php

declare(strict_types=1);

namespace Chapar;

/**
 * A client of one account of the Chapar SMS API, authenticated with an API key.
 *
 * Calls are retried on network errors, 5xx and 429 ($maxRetries more times), waiting
 * Retry-After when the answer gives one, else an exponential back-off; each POST
 * carries an Idempotency-Key that stays the same on every retry, so a retried send
 * is one send. Error answers throw ChaparException with the Persian message.
 */
final class Client
{
    private const USER_AGENT = 'chapar-php/0.1.0';

    private string $baseUrl;

    public function __construct(
        string $baseUrl,
        private readonly string $apiKey,
        private readonly float $timeout = 30.0,
        private readonly int $maxRetries = 3,
        private readonly float $backoff = 0.5,
        private readonly float $maxBackoff = 30.0,
    ) {
        $url = rtrim($baseUrl, '/');
        $this->baseUrl = str_ends_with($url, '/v1/api') ? $url : $url . '/v1/api';
    }

    /**
     * Quick send of $text from the line $sender to $numbers.
     *
     * @param list<string> $numbers
     * @param array{local_id?: string, send_at?: string, cancel11?: bool, idempotency_key?: string} $options
     * @return array{id: int, status: string, price: int, sender: string, cancel11: bool}
     */
    public function send(string $sender, array $numbers, string $text, array $options = []): array
    {
        $key = $options['idempotency_key'] ?? null;
        unset($options['idempotency_key']);
        $body = ['type' => 'quick', 'sender' => $sender, 'text' => $text, 'numbers' => array_values($numbers)] + $options;
        return $this->request('POST', '/send', body: $body, idempotencyKey: $key);
    }

    /**
     * Sends an approved pattern to $recipient with $values.
     *
     * @param array<string, string|int> $values
     * @param array{sender?: string, local_id?: string, idempotency_key?: string, recipients?: list<array{mobile: string, values?: array<string, string>}>} $options
     */
    public function sendPattern(string $code, ?string $recipient, array $values = [], array $options = []): array
    {
        $key = $options['idempotency_key'] ?? null;
        unset($options['idempotency_key']);
        $body = ['code' => $code] + $options;
        if ($recipient !== null) {
            $body['recipient'] = $recipient;
            $body['values'] = (object) array_map('strval', $values);
        }
        return $this->request('POST', '/patterns/send', body: $body, idempotencyKey: $key);
    }

    /** A send by its id; with $mobile, that recipient's status under "recipient". */
    public function status(int $id, ?string $mobile = null): array
    {
        return $this->request('GET', '/send/status', query: ['id' => $id, 'mobile' => $mobile]);
    }

    /** A send by the local_id it was sent with. */
    public function statusByLocalId(string $localId, ?string $mobile = null): array
    {
        return $this->request('GET', '/send/status', query: ['local_id' => $localId, 'mobile' => $mobile]);
    }

    /** The wallet's credit in rials. */
    public function credit(): int
    {
        return (int) $this->request('GET', '/payment/credit/mine')['credit'];
    }

    /** The account's sender lines, the default first. */
    public function lines(): array
    {
        return $this->request('GET', '/number/numbers');
    }

    /** Received messages with an id above $afterId, oldest first (keep the last id). */
    public function inboxSince(int $afterId = 0, int $limit = 100): array
    {
        return $this->request('GET', '/inbox/since', query: ['after_id' => $afterId, 'limit' => $limit]);
    }

    /**
     * One API call with retries: the envelope's data, or a ChaparException.
     *
     * @param array<string, scalar|null> $query
     */
    public function request(string $method, string $path, mixed $body = null, array $query = [], ?string $idempotencyKey = null): mixed
    {
        $url = $this->baseUrl . $path;
        $query = array_filter($query, static fn ($v) => $v !== null);
        if ($query !== []) {
            $url .= '?' . http_build_query($query);
        }
        $headers = ['Authorization: Bearer ' . $this->apiKey, 'Accept: application/json', 'User-Agent: ' . self::USER_AGENT];
        $payload = null;
        if ($body !== null) {
            $payload = json_encode($body, JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
            $headers[] = 'Content-Type: application/json';
        }
        if ($method === 'POST') {
            $headers[] = 'Idempotency-Key: ' . ($idempotencyKey ?? bin2hex(random_bytes(16)));
        }
        for ($attempt = 0; ; $attempt++) {
            try {
                return $this->once($method, $url, $headers, $payload);
            } catch (ChaparException $e) {
                if ($attempt >= $this->maxRetries || !self::retryable($e)) {
                    throw $e;
                }
                usleep((int) ($this->delay($attempt, $e->getRetryAfter()) * 1_000_000));
            }
        }
    }

    private static function retryable(ChaparException $e): bool
    {
        return $e instanceof NetworkException || $e->getStatus() >= 500 || $e->getStatus() === 429
            || $e->getMessageCode() === 'idempotency-key-busy';
    }

    private function delay(int $attempt, ?float $retryAfter): float
    {
        if ($retryAfter !== null) {
            return min($retryAfter, $this->maxBackoff);
        }
        $base = min($this->backoff * (2 ** $attempt), $this->maxBackoff);
        return $base * (0.8 + 0.4 * mt_rand() / mt_getrandmax());
    }

    /** @param list<string> $headers */
    private function once(string $method, string $url, array $headers, ?string $payload): mixed
    {
        $ctx = stream_context_create(['http' => [
            'method' => $method,
            'header' => implode("\r\n", $headers),
            'content' => $payload ?? '',
            'timeout' => $this->timeout,
            'ignore_errors' => true,
            'follow_location' => 0,
            'protocol_version' => 1.1,
        ]]);
        error_clear_last();
        $raw = @file_get_contents($url, false, $ctx);
        $responseHeaders = function_exists('http_get_last_response_headers')
            ? (http_get_last_response_headers() ?? []) : ($http_response_header ?? []);
        if ($raw === false || $responseHeaders === []) {
            $why = error_get_last()['message'] ?? 'no answer';
            throw new NetworkException("chapar: {$method} {$url}: {$why}");
        }
        return self::decode($responseHeaders, $raw);
    }

    /** @param list<string> $headers */
    private static function decode(array $headers, string $raw): mixed
    {
        $status = 0;
        $retryAfter = null;
        foreach ($headers as $h) {
            if (preg_match('#^HTTP/\S+\s+(\d{3})#', $h, $m) === 1) {
                $status = (int) $m[1]; // the last status line wins (after a 100 Continue)
            } elseif (stripos($h, 'retry-after:') === 0) {
                $retryAfter = self::retryAfter(trim(substr($h, 12)));
            }
        }
        $env = json_decode($raw, true);
        $env = is_array($env) ? $env : [];
        if ($status >= 200 && $status < 300) {
            return $env['data'] ?? null;
        }
        $meta = is_array($env['meta'] ?? null) ? $env['meta'] : [];
        throw new ChaparException($status, (string) ($meta['message'] ?? "HTTP {$status}"),
            (string) ($meta['message_code'] ?? ''), (array) ($meta['errors'] ?? []), $env['data'] ?? null, $retryAfter);
    }

    private static function retryAfter(string $v): ?float
    {
        if (is_numeric($v)) {
            return max(0.0, (float) $v);
        }
        $at = strtotime($v);
        return $at === false ? null : (float) max(0, $at - time());
    }
}
