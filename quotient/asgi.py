import os

from django.core.asgi import get_asgi_application

from core.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quotient.settings.base")
require_secret_key()  # before Django's own, vaguer complaint
application = get_asgi_application()
