from standin import install

install()
