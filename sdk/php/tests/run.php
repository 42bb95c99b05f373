<?php
// The library's tests, plain PHP (no Composer install needed): `php tests/run.php`.
// Offline: retries against a `php -S` server, the webhook vector of the Go signer
// (CHAPAR_WEBHOOK_VECTOR). Live, when CHAPAR_URL, CHAPAR_KEY and SIM_URL are set
// (scripts/sdk-test.sh): send, status, pattern, credit, inbox and Persian errors.
declare(strict_types=1);

spl_autoload_register(static function (string $class): void {
    if (str_starts_with($class, 'Chapar\\')) {
        require __DIR__ . '/../src/' . str_replace('\\', '/', substr($class, 7)) . '.php';
    }
});

final class Skip extends Exception
{
}

function check(bool $cond, string $what): void
{
    if (!$cond) {
        throw new RuntimeException('assertion failed: ' . $what);
    }
}

function caught(callable $fn): ?Chapar\ChaparException
{
    try {
        $fn();
    } catch (Chapar\ChaparException $e) {
        return $e;
    }
    return null;
}

$tests = [];
require __DIR__ . '/offline.php';
require __DIR__ . '/live.php';

$passed = $failed = $skipped = 0;
foreach ($tests as $name => $fn) {
    try {
        $fn();
        $passed++;
        echo "ok - {$name}\n";
    } catch (Skip $s) {
        $skipped++;
        echo "skip - {$name}: {$s->getMessage()}\n";
    } catch (Throwable $e) {
        $failed++;
        echo "not ok - {$name}: " . get_class($e) . ': ' . $e->getMessage() . "\n";
    }
}
echo "{$passed} passed, {$failed} failed, {$skipped} skipped\n";
exit($failed > 0 ? 1 : 0);
