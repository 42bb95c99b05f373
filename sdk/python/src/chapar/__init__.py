"""Client for the Chapar SMS API (standard library only).

    from chapar import Client, ChaparError
    client = Client("https://panel.example.ir", "chp_live_...")
    sent = client.send("300012345", ["09121234567"], "سلام", local_id="order-1")
    client.status(sent["id"])
"""

from .client import Client, ChaparError, ChaparNetworkError
from .webhook import verify_webhook, sign_webhook

__all__ = ["Client", "ChaparError", "ChaparNetworkError", "verify_webhook", "sign_webhook"]
__version__ = "0.1.0"
