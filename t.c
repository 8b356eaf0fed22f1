int main(void){ foo(1); return 0; }
