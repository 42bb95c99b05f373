<?php

declare(strict_types=1);

namespace Chapar;

/**
 * An error answer of the API: the HTTP status, the envelope's Persian message
 * (getMessage()), its stable code (meta.message_code) and per-field messages.
 */
class ChaparException extends \RuntimeException
{
    /**
     * @param array<string, list<string>> $errors
     */
    public function __construct(
        private readonly int $status,
        string $message,
        private readonly string $messageCode = '',
        private readonly array $errors = [],
        private readonly mixed $data = null,
        private readonly ?float $retryAfter = null,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $status, $previous);
    }

    /** HTTP status (0 when the API could not be reached). */
    public function getStatus(): int
    {
        return $this->status;
    }

    /** meta.message_code: "422", "low-credit", "403-8", "local-id-taken", … */
    public function getMessageCode(): string
    {
        return $this->messageCode;
    }

    /** @return array<string, list<string>> meta.errors: Persian messages per field */
    public function getErrors(): array
    {
        return $this->errors;
    }

    public function getData(): mixed
    {
        return $this->data;
    }

    /** Seconds of the answer's Retry-After, when it had one. */
    public function getRetryAfter(): ?float
    {
        return $this->retryAfter;
    }
}
