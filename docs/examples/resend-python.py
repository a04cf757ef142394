"""Send through Mailroom with the official Resend Python SDK (docs/resend-compatibility.md).

    pip install resend
    MAILROOM_URL=https://mail.example.com MAILROOM_API_KEY=re_live_... \
    FROM=orders@shop.example.com TO=you@example.net python3 resend-python.py

The only Mailroom-specific line is `resend.api_url` (or set RESEND_API_URL instead). FROM must
be an address on a domain verified on your Mailroom account.
"""

import os
import sys

import resend

resend.api_url = os.environ["MAILROOM_URL"].rstrip("/")
resend.api_key = os.environ["MAILROOM_API_KEY"]

sent = resend.Emails.send(
    {
        "from": os.environ["FROM"],
        "to": [os.environ["TO"]],
        "subject": "Hello from Mailroom",
        "html": "<p>Sent with the <strong>Resend</strong> Python SDK.</p>",
        "text": "Sent with the Resend Python SDK.",
        "reply_to": os.environ["FROM"],
        "tags": [{"name": "example", "value": "python"}],
        "headers": {"X-Entity-Ref-ID": "python-example"},
    }
)
print("queued:", sent["id"])

email = resend.Emails.get(sent["id"])
print("last_event:", email["last_event"])

# Errors arrive as Resend's {statusCode, name, message}; the SDK raises them with that message.
try:
    resend.Emails.get("email_00000000000000000000000000")
except Exception as err:  # resend.exceptions.ResendError and its subclasses
    print("expected error:", type(err).__name__, err, file=sys.stderr)
