<?php
// Router of `php -S` for the retry tests: answers the statuses listed in the file
// FLAKY_STATE one by one ("503", "429:1" = with Retry-After: 1) and logs each
// request's time and Idempotency-Key to FLAKY_STATE.log.
$state = getenv('FLAKY_STATE');
$answers = file($state, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES);
$next = array_shift($answers);
file_put_contents($state, implode("\n", $answers));
file_put_contents($state . '.log', microtime(true) . ' ' . ($_SERVER['HTTP_IDEMPOTENCY_KEY'] ?? '') . "\n", FILE_APPEND);
[$status, $retryAfter] = array_pad(explode(':', (string) $next), 2, null);
http_response_code((int) $status);
if ($retryAfter !== null) {
    header('Retry-After: ' . $retryAfter);
}
header('Content-Type: application/json');
echo json_encode(['data' => $status < 300 ? ['id' => 7] : null,
    'meta' => ['status' => (int) $status, 'message' => 'خطای سرور', 'message_code' => $status, 'errors' => new stdClass()]]);
