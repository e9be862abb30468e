"""Accounts: two-factor logins (django-otp) and the API's named, expiring tokens."""
