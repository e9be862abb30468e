import os

from django.core.wsgi import get_wsgi_application

from core.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quotient.settings.base")
require_secret_key()  # before Django's own, vaguer complaint
application = get_wsgi_application()
