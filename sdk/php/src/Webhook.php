<?php

declare(strict_types=1);

namespace Chapar;

/**
 * Webhook signatures: X-Chapar-Signature is "v1=" and the hex HMAC-SHA256 under the
 * endpoint's secret of "<X-Chapar-Timestamp>.<raw body>".
 */
final class Webhook
{
    public const HEADER_TIMESTAMP = 'X-Chapar-Timestamp';
    public const HEADER_SIGNATURE = 'X-Chapar-Signature';
    public const HEADER_DELIVERY = 'X-Chapar-Delivery';

    /** The signature value of $body sent at $timestamp (Unix seconds). */
    public static function sign(string $secret, int|string $timestamp, string $body): string
    {
        return 'v1=' . hash_hmac('sha256', $timestamp . '.' . $body, $secret);
    }

    /**
     * Checks a POST on its raw body (file_get_contents('php://input')): one of the
     * comma-separated signatures matches in constant time and the timestamp is within
     * $tolerance seconds of $now.
     */
    public static function verify(
        string $secret,
        string $timestamp,
        string $signature,
        string $body,
        int $tolerance = 300,
        ?int $now = null,
    ): bool {
        $ts = trim($timestamp);
        if (preg_match('/^-?\d+$/', $ts) !== 1) {
            return false;
        }
        if (abs(($now ?? time()) - (int) $ts) > $tolerance) {
            return false;
        }
        $want = self::sign($secret, (int) $ts, $body);
        foreach (explode(',', $signature) as $sig) {
            if (hash_equals($want, trim($sig))) {
                return true;
            }
        }
        return false;
    }
}
