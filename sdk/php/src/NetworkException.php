<?php

declare(strict_types=1);

namespace Chapar;

/** The API could not be reached (after the retries). */
class NetworkException extends ChaparException
{
    public function __construct(string $message)
    {
        parent::__construct(0, $message, 'network');
    }
}
